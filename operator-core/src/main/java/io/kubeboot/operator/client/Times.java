package io.kubeboot.operator.client;

import java.io.IOException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

import com.google.gson.Gson;
import com.google.gson.TypeAdapter;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import com.google.gson.stream.JsonWriter;

/**
 * Writes times the way Kubernetes does ({@code metav1.Time}: RFC 3339 in UTC, whole
 * seconds), so that a time written and read back compares equal and a status write does
 * not change a condition's {@code lastTransitionTime} by a fraction of a second.
 */
final class Times {

	private static final DateTimeFormatter RFC_3339 = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'");

	private Times() {
	}

	static Gson wholeSeconds(Gson gson) {
		TypeAdapter<OffsetDateTime> reading = gson.getAdapter(OffsetDateTime.class);
		return gson.newBuilder().registerTypeAdapter(OffsetDateTime.class, new TypeAdapter<OffsetDateTime>() {

			@Override
			public void write(JsonWriter out, OffsetDateTime value) throws IOException {
				if (value == null) {
					out.nullValue();
					return;
				}
				out.value(RFC_3339.format(value.withOffsetSameInstant(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS)));
			}

			@Override
			public OffsetDateTime read(JsonReader in) throws IOException {
				if (in.peek() == JsonToken.NULL) {
					in.nextNull();
					return null;
				}
				return reading.read(in);
			}

		}).create();
	}

}
