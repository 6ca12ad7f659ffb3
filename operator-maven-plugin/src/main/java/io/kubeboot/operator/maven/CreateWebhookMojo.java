package io.kubeboot.operator.maven;

import java.util.Set;

import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

/**
 * Adds a validating webhook, a defaulting webhook or both to an existing kind, each with
 * its test against a local control plane, then regenerates {@code deploy/} (which gains
 * the webhook configurations and their cert-manager Certificate). For example
 * {@code mvn operator:create-webhook -Dkind=Website -Dvalidating -Ddefaulting}.
 * <p>
 * The webhook is for the kind's storage version unless {@code -DapiVersion} names
 * another. The goal writes new files only and refuses, before writing anything, if the
 * kind has the webhook already or a file exists.
 */
@Mojo(name = "create-webhook", requiresProject = true, requiresDirectInvocation = true, threadSafe = true)
public class CreateWebhookMojo extends AbstractMojo {

	private static final Set<String> PARAMETERS = Set.of("kind", "apiVersion", "validating", "defaulting", "dryRun",
			"regenerate");

	/**
	 * The kind the webhook is for, one of the project's, such as {@code Website}.
	 */
	@Parameter(property = "kind")
	private String kind;

	/**
	 * The version the webhook is for, such as {@code v1alpha1}; by default the kind's
	 * storage version.
	 */
	@Parameter(property = "apiVersion")
	private String apiVersion;

	/**
	 * Add a validator: an {@code AdmissionValidator} that may refuse a create or an
	 * update.
	 */
	@Parameter(property = "validating", defaultValue = "false")
	private boolean validating;

	/**
	 * Add a defaulter: a {@code Defaulter} that may change an object before it is stored.
	 */
	@Parameter(property = "defaulting", defaultValue = "false")
	private boolean defaulting;

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
		WebhookScaffold scaffold = new WebhookScaffold(
				new WebhookScaffold.Options(this.kind, this.apiVersion, this.validating, this.defaulting));
		MavenGoal.run(this.project, this.session, getLog(), PARAMETERS, this.dryRun, this.regenerate, scaffold::plan);
	}

}
