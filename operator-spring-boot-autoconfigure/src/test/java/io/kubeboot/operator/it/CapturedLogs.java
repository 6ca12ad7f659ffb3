package io.kubeboot.operator.it;

import java.util.List;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.LoggerFactory;

/**
 * What a logger and its descendants log during each test, captured by a logback
 * {@link ListAppender} attached before the test and detached after it.
 * <p>
 * Registered on an instance field with
 * {@link org.junit.jupiter.api.extension.RegisterExtension @RegisterExtension}. Not for a
 * test that starts a Spring application: its start configures logging afresh, and drops
 * the appender.
 */
final class CapturedLogs implements BeforeEachCallback, AfterEachCallback {

	private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

	private final String loggerName;

	/**
	 * Captures what a logger logs.
	 * @param loggerName the name of the logger, such as
	 * {@code io.kubeboot.operator.cache}
	 */
	CapturedLogs(String loggerName) {
		this.loggerName = loggerName;
	}

	@Override
	public void beforeEach(ExtensionContext context) {
		this.appender.start();
		logger().addAppender(this.appender);
	}

	@Override
	public void afterEach(ExtensionContext context) {
		logger().detachAppender(this.appender);
	}

	/**
	 * The events logged so far, in order.
	 * @return a copy of the events, taken under the lock the appender appends under
	 */
	List<ILoggingEvent> events() {
		synchronized (this.appender) {
			return List.copyOf(this.appender.list);
		}
	}

	private Logger logger() {
		return (Logger) LoggerFactory.getLogger(this.loggerName);
	}

}
