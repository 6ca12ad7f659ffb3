package io.kubeboot.operator.maven;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import org.apache.maven.execution.MavenExecutionRequest;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.logging.Log;
import org.apache.maven.project.MavenProject;

/**
 * What the goals share with Maven, and the only class besides the Mojos that sees its
 * API: the project checks, the session the nested build takes over, and refusals turned
 * into build failures.
 */
final class MavenGoal {

	private MavenGoal() {
	}

	/**
	 * Plans a scaffold from the project's sources and runs it.
	 * @param project the project the goal runs in
	 * @param session the build's session
	 * @param log the goal's log
	 * @param parameters the goal's user properties, not passed to the nested build
	 * @param dryRun {@code -DdryRun}
	 * @param regenerate {@code -Dregenerate}
	 * @param planner the goal's scaffold
	 * @throws MojoFailureException with the refusal's message
	 */
	static void run(MavenProject project, MavenSession session, Log log, Set<String> parameters, boolean dryRun,
			boolean regenerate, Function<ProjectSources, Scaffold> planner) throws MojoFailureException {
		if ("pom".equals(project.getPackaging())) {
			throw new MojoFailureException(project.getArtifactId() + " is a pom module: run in the module that holds "
					+ "the application: mvn -pl <module> operator:...");
		}
		try {
			Scaffold scaffold = planner.apply(ProjectSources.read(project.getBasedir().toPath()));
			DeployRegeneration regeneration = regenerate ? new DeployRegeneration(session(project, session), parameters)
					: null;
			new ScaffoldRun(log::info, log::warn, log::debug).run(scaffold, dryRun, regeneration);
		}
		catch (ScaffoldException ex) {
			throw new MojoFailureException(ex.getMessage(), ex);
		}
	}

	static DeployRegeneration.Session session(MavenProject project, MavenSession session) {
		MavenExecutionRequest request = session.getRequest();
		String mavenHome = session.getSystemProperties().getProperty("maven.home");
		Map<String, String> userProperties = new LinkedHashMap<>();
		session.getUserProperties().forEach((name, value) -> userProperties.put(name.toString(), value.toString()));
		File localRepository = request.getLocalRepositoryPath();
		return new DeployRegeneration.Session((mavenHome != null) ? Path.of(mavenHome) : null,
				project.getFile().toPath(), Path.of(project.getBuild().getDirectory(), "surefire-reports"),
				existing(request.getUserSettingsFile()), existing(request.getGlobalSettingsFile()),
				(localRepository != null) ? localRepository.toPath() : null, request.isOffline(), profiles(request),
				userProperties, System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows"));
	}

	// -P a,!b: the profiles the outer build activated and deactivated by name
	private static List<String> profiles(MavenExecutionRequest request) {
		List<String> profiles = new ArrayList<>(request.getActiveProfiles());
		request.getInactiveProfiles().forEach((profile) -> profiles.add("!" + profile));
		return profiles;
	}

	// Maven names the default settings files even when they do not exist; -s would fail
	// on them
	private static Path existing(File file) {
		return (file != null && file.isFile()) ? file.toPath() : null;
	}

}
