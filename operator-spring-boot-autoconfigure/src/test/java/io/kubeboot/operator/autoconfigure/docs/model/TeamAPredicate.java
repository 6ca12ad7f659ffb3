package io.kubeboot.operator.autoconfigure.docs.model;

import io.kubeboot.operator.predicate.EventFilter;

/**
 * An event filter of the application's own: only the Apps of team A.
 */
public class TeamAPredicate implements EventFilter<App> {

	@Override
	public boolean create(App app) {
		return isTeamA(app);
	}

	@Override
	public boolean update(App oldApp, App newApp) {
		return isTeamA(newApp);
	}

	@Override
	public boolean delete(App app) {
		return isTeamA(app);
	}

	private static boolean isTeamA(App app) {
		return app.getMetadata().getLabels() != null && "a".equals(app.getMetadata().getLabels().get("team"));
	}

}
