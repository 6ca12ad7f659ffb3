package io.kubeboot.operator.maven;

import java.util.Set;

import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

/**
 * Adds a kind to an operator project: its model (the kind, its spec and its status), a
 * reconciler that reports {@code Ready}, the reconciler's test against a local control
 * plane and an example, then regenerates {@code deploy/}. For example
 * {@code mvn operator:create-api -Dkind=Database}.
 * <p>
 * The group defaults to that of the project's kinds, the version to the one they share
 * (else {@code v1alpha1}), the plural to the kind's English plural. The goal writes new
 * files only and refuses, before writing anything, if one exists.
 */
@Mojo(name = "create-api", requiresProject = true, requiresDirectInvocation = true, threadSafe = true)
public class CreateApiMojo extends AbstractMojo {

	private static final Set<String> PARAMETERS = Set.of("kind", "apiVersion", "group", "plural", "scope", "reconciler",
			"dryRun", "regenerate");

	/**
	 * The kind to add, UpperCamelCase, such as {@code Database}.
	 */
	@Parameter(property = "kind")
	private String kind;

	/**
	 * The version, such as {@code v1alpha1}, or the group and the version, such as
	 * {@code shop.example.com/v1alpha1}. By default the version the group's kinds share,
	 * else {@code v1alpha1}.
	 */
	@Parameter(property = "apiVersion")
	private String apiVersion;

	/**
	 * The API group, a DNS subdomain with a dot. By default the group of the project's
	 * kinds; required when they have several.
	 */
	@Parameter(property = "group")
	private String group;

	/**
	 * The plural resource name. By default the kind's English plural in lower case, which
	 * the goal prints.
	 */
	@Parameter(property = "plural")
	private String plural;

	/**
	 * {@code Namespaced} or {@code Cluster}.
	 */
	@Parameter(property = "scope", defaultValue = "Namespaced")
	private String scope;

	/**
	 * Whether to write a reconciler and its test; {@code false} writes the model and the
	 * example only.
	 */
	@Parameter(property = "reconciler", defaultValue = "true")
	private boolean reconciler;

	/**
	 * Print what the goal would write, and write nothing.
	 */
	@Parameter(property = "dryRun", defaultValue = "false")
	private boolean dryRun;

	/**
	 * Whether to regenerate {@code deploy/} in a nested build; {@code false} prints the
	 * command instead, and the next build fails until it is run.
	 */
	@Parameter(property = "regenerate", defaultValue = "true")
	private boolean regenerate;

	@Parameter(defaultValue = "${project}", readonly = true, required = true)
	private MavenProject project;

	@Parameter(defaultValue = "${session}", readonly = true, required = true)
	private MavenSession session;

	@Override
	public void execute() throws MojoFailureException {
		ApiScaffold scaffold = new ApiScaffold(new ApiScaffold.Options(this.kind, this.apiVersion, this.group,
				this.plural, this.scope, this.reconciler));
		MavenGoal.run(this.project, this.session, getLog(), PARAMETERS, this.dryRun, this.regenerate, scaffold::plan);
	}

}
