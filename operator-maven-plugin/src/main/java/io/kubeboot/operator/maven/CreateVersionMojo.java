package io.kubeboot.operator.maven;

import java.util.Set;

import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

/**
 * Adds a version to an existing kind, served beside its storage version, which stays the
 * storage version and the hub: the new version's model class ({@code storage = false},
 * converting to and from the hub), copies of the hub's spec and status classes, the
 * kind's {@code Conversion} bean (created, or extended with the new class) and a test of
 * the conversion against a local control plane, then regenerates {@code deploy/}, whose
 * CRD gains the version and conversion by webhook. For example
 * {@code mvn operator:create-version -Dkind=Website -DapiVersion=v1}.
 * <p>
 * A project generated before the archetype gave {@code maven-compiler-plugin} the
 * {@code -Akubeboot.webhook.*} options gets them in {@code pom.xml}, after
 * {@code <annotationProcessorPathsUseDepMgmt>}. The goal writes new files only, besides
 * that edit and the {@code Conversion} bean's, and refuses, before writing anything, if
 * the version exists or a file does.
 */
@Mojo(name = "create-version", requiresProject = true, requiresDirectInvocation = true, threadSafe = true)
public class CreateVersionMojo extends AbstractMojo {

	private static final Set<String> PARAMETERS = Set.of("kind", "apiVersion", "conversion", "dryRun", "regenerate");

	/**
	 * The kind to add a version to, one of the project's, such as {@code Website}.
	 */
	@Parameter(property = "kind")
	private String kind;

	/**
	 * The new version, such as {@code v1}, or the group and the version, such as
	 * {@code shop.example.com/v1}.
	 */
	@Parameter(property = "apiVersion")
	private String apiVersion;

	/**
	 * Whether to create the kind's {@code Conversion} bean or add the new version to it;
	 * {@code false} leaves the conversion beans to you.
	 */
	@Parameter(property = "conversion", defaultValue = "true")
	private boolean conversion;

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
		VersionScaffold scaffold = new VersionScaffold(
				new VersionScaffold.Options(this.kind, this.apiVersion, this.conversion));
		MavenGoal.run(this.project, this.session, getLog(), PARAMETERS, this.dryRun, this.regenerate, scaffold::plan);
	}

}
