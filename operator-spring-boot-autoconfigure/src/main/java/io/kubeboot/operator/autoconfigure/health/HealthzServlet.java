package io.kubeboot.operator.autoconfigure.health;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import io.kubeboot.operator.healthz.CheckResult;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

/**
 * controller-runtime's {@code /healthz} and {@code /readyz} handlers, answering exactly
 * as they do: {@code 200 ok} when every check passes; otherwise {@code 500} with one line
 * per check ({@code [+]name ok} or {@code [-]name failed: reason withheld}) and
 * {@code healthz check failed}. {@code ?verbose} lists the checks on success too,
 * {@code ?exclude=name} skips a check, and {@code /healthz/<name>} runs one check.
 */
class HealthzServlet extends HttpServlet {

	private static final long serialVersionUID = 1L;

	private final transient Supplier<List<CheckResult>> checks;

	HealthzServlet(Supplier<List<CheckResult>> checks) {
		this.checks = checks;
	}

	@Override
	protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
		List<CheckResult> selected = select(request);
		if (selected == null) {
			response.sendError(HttpServletResponse.SC_NOT_FOUND);
			return;
		}
		boolean failed = selected.stream().anyMatch((check) -> !check.ok());
		boolean verbose = request.getParameter("verbose") != null;
		response.setContentType("text/plain; charset=utf-8");
		response.setHeader("X-Content-Type-Options", "nosniff");
		if (!failed && !verbose) {
			response.getOutputStream().write("ok".getBytes(StandardCharsets.UTF_8));
			return;
		}
		StringBuilder body = new StringBuilder();
		for (CheckResult check : selected) {
			body.append(
					check.ok() ? "[+]" + check.name() + " ok\n" : "[-]" + check.name() + " failed: reason withheld\n");
		}
		if (failed) {
			response.setStatus(HttpServletResponse.SC_INTERNAL_SERVER_ERROR);
			body.append("healthz check failed\n");
		}
		else {
			body.append("healthz check passed\n");
		}
		response.getOutputStream().write(body.toString().getBytes(StandardCharsets.UTF_8));
	}

	private @Nullable List<CheckResult> select(HttpServletRequest request) {
		List<CheckResult> all = this.checks.get();
		String path = request.getPathInfo();
		if (path != null && path.length() > 1) {
			String name = path.substring(1);
			List<CheckResult> one = all.stream().filter((check) -> check.name().equals(name)).toList();
			return one.isEmpty() ? null : one;
		}
		String[] excluded = request.getParameterValues("exclude");
		List<CheckResult> selected = new ArrayList<>(all);
		if (excluded != null) {
			selected.removeIf((check) -> List.of(excluded).contains(check.name()));
		}
		return selected;
	}

}
