package io.kubeboot.operator.crd;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.RoundEnvironment;
import javax.annotation.processing.SupportedAnnotationTypes;
import javax.annotation.processing.SupportedOptions;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.TypeElement;
import javax.tools.Diagnostic;
import javax.tools.FileObject;
import javax.tools.StandardLocation;

/**
 * Writes the CustomResourceDefinition of every kind modelled by a class annotated with
 * {@code io.kubeboot.operator.model.KubernetesKind} to the class output, as
 * {@code META-INF/kubeboot/crds/<plural>.<group>.yaml}: one file per kind, with one
 * version per class of that kind. The schema comes from the classes' fields as
 * client-java's Gson reads and writes them, descriptions from their javadoc, validation
 * from Jakarta Validation constraints and the schema annotations of
 * {@code io.kubeboot.operator.model}.
 * <p>
 * A kind whose classes carry {@code @AdmissionPolicy} also gets
 * {@code META-INF/kubeboot/policies/<plural>.<group>.yaml}: a ValidatingAdmissionPolicy
 * and its ValidatingAdmissionPolicyBinding per annotation, their CEL checked against the
 * kind's schema and the names the API server declares to a policy.
 * <p>
 * Add it to the compiler's annotation processor path; it reads every annotation by name
 * and brings no dependency into the application. Problems (a type a schema cannot
 * describe, two storage versions of a kind, a class that refers to itself) are compiler
 * errors on the element concerned, and no file is written for that kind. Kinds of
 * Kubernetes' own API groups (no dot in the group, or under {@code k8s.io} or
 * {@code kubernetes.io}) get no file.
 * <p>
 * A kind with several versions gets a conversion webhook at the starter's
 * {@code /convert}, behind the Service the options name: {@code kubeboot.webhook.service}
 * (default {@code webhook-service}), {@code kubeboot.webhook.namespace} (default
 * {@code system}), {@code kubeboot.webhook.port} (the Service's port, default 443),
 * {@code kubeboot.webhook.certificate} (a cert-manager Certificate as
 * {@code namespace/name}, for cert-manager to fill in the CA bundle); or none with
 * {@code kubeboot.conversion.strategy=None}.
 */
@SupportedAnnotationTypes({ CustomResourceDefinitionProcessor.KUBERNETES_KIND, Constraints.MODEL + "Scale",
		Constraints.MODEL + "SelectableField", Constraints.MODEL + "SelectableFields", PolicyDocument.POLICY,
		PolicyDocument.POLICIES })
@SupportedOptions({ Conversion.STRATEGY, Conversion.SERVICE, Conversion.NAMESPACE, Conversion.PORT,
		Conversion.CERTIFICATE })
public class CustomResourceDefinitionProcessor extends AbstractProcessor {

	static final String KUBERNETES_KIND = "io.kubeboot.operator.model.KubernetesKind";

	private final Map<String, List<KindVersion>> kinds = new TreeMap<>();

	private Diagnostics diagnostics;

	private SchemaBuilder schemas;

	private Conversion conversion;

	@Override
	public synchronized void init(ProcessingEnvironment processingEnv) {
		super.init(processingEnv);
		this.diagnostics = new Diagnostics(processingEnv.getMessager());
		this.schemas = new SchemaBuilder(processingEnv.getElementUtils(), processingEnv.getTypeUtils(),
				this.diagnostics);
		this.conversion = Conversion.of(processingEnv.getOptions(), this.diagnostics);
	}

	@Override
	public SourceVersion getSupportedSourceVersion() {
		return SourceVersion.latestSupported();
	}

	@Override
	public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
		for (TypeElement annotation : annotations) {
			boolean kind = annotation.getQualifiedName().contentEquals(KUBERNETES_KIND);
			for (Element element : round.getElementsAnnotatedWith(annotation)) {
				if (kind) {
					read(element);
				}
				else if (element.getKind().isClass() || element.getKind().isInterface()) {
					checkOnKind(element, annotation);
				}
			}
		}
		if (round.processingOver()) {
			for (List<KindVersion> versions : this.kinds.values()) {
				CrdDocument document = new CrdDocument(versions, this.conversion);
				PolicyDocument policies = PolicyDocument.read(versions, this.processingEnv.getElementUtils(),
						this.diagnostics);
				if (document.check(this.diagnostics) && policies != null) {
					write(document.path(), document.yaml(),
							versions.stream().map(KindVersion::type).toArray(Element[]::new));
					if (!policies.isEmpty()) {
						write(policies.path(), policies.yaml(), policies.origins());
					}
					if (document.convertsByWebhook() && !this.conversion.named()) {
						this.diagnostics.note(versions.get(0).type(),
								"The CustomResourceDefinition of " + versions.get(0).kind() + " sends conversions to "
										+ this.conversion.describe() + "; name your Service " + "with -A"
										+ Conversion.SERVICE + "=... and -A" + Conversion.NAMESPACE + "=...");
					}
				}
			}
			this.kinds.clear();
		}
		return false;
	}

	private void read(Element element) {
		if (element.getKind() != ElementKind.CLASS && element.getKind() != ElementKind.RECORD) {
			return;
		}
		TypeElement type = (TypeElement) element;
		Annotation kind = kindAnnotation(type);
		String group = kind.string("group");
		if (!group.contains(".") || isKubernetesGroup(group)) {
			this.processingEnv.getMessager()
				.printMessage(Diagnostic.Kind.NOTE, "No CustomResourceDefinition for " + type.getQualifiedName()
						+ ": its group '" + group + "' is one of Kubernetes' own", type);
			if (PolicyDocument.declares(type, this.processingEnv.getElementUtils())) {
				this.diagnostics.error(type, "@AdmissionPolicy on " + type.getQualifiedName() + " writes no policy: "
						+ "the generator writes policies beside the CustomResourceDefinitions of custom resources, "
						+ "and the group '" + group + "' is one of Kubernetes' own");
			}
			return;
		}
		KindVersion version = KindVersion.read(type, kind, this.schemas, this.processingEnv.getElementUtils(),
				this.diagnostics);
		if (version != null) {
			this.kinds.computeIfAbsent(group + "/" + version.kind(), (key) -> new ArrayList<>()).add(version);
		}
	}

	/**
	 * Refuses an annotation that only the kind class takes ({@code @Scale}, and
	 * {@code @SelectableField} with a path) on another type, where it would do nothing.
	 */
	private void checkOnKind(Element type, TypeElement annotation) {
		if (type.getAnnotationMirrors()
			.stream()
			.noneMatch((mirror) -> ((TypeElement) mirror.getAnnotationType().asElement()).getQualifiedName()
				.contentEquals(KUBERNETES_KIND))) {
			this.diagnostics.error(type, "@" + annotation.getSimpleName() + " goes on the class annotated with "
					+ "@KubernetesKind, and " + ((TypeElement) type).getQualifiedName() + " is none");
		}
	}

	private static boolean isKubernetesGroup(String group) {
		return group.equals("k8s.io") || group.endsWith(".k8s.io") || group.equals("kubernetes.io")
				|| group.endsWith(".kubernetes.io");
	}

	private Annotation kindAnnotation(TypeElement type) {
		for (AnnotationMirror mirror : type.getAnnotationMirrors()) {
			Annotation annotation = Annotation.of(mirror, this.processingEnv.getElementUtils());
			if (annotation.type().equals(KUBERNETES_KIND)) {
				return annotation;
			}
		}
		throw new IllegalStateException("No @KubernetesKind on " + type);
	}

	private void write(String path, String yaml, Element[] origins) {
		try {
			FileObject file = this.processingEnv.getFiler()
				.createResource(StandardLocation.CLASS_OUTPUT, "", path, origins);
			try (OutputStream out = file.openOutputStream()) {
				out.write(yaml.getBytes(StandardCharsets.UTF_8));
			}
		}
		catch (IOException ex) {
			this.diagnostics.error(origins[0], "Cannot write " + path + ": " + ex.getMessage());
		}
	}

}
