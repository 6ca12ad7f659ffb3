package io.kubeboot.operator.autoconfigure;

import javax.lang.model.element.Modifier;

import org.jspecify.annotations.Nullable;
import org.springframework.aot.generate.GeneratedClass;
import org.springframework.aot.generate.GeneratedMethod;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotContribution;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;

/**
 * Records, while {@code spring-boot:process-aot} runs, the values of the properties of
 * {@link AotConditions}, and adds to the generated code a call that checks them against
 * the environment the application starts with. Registered in
 * {@code META-INF/spring/aot.factories}.
 */
class AotConditionsProcessor implements BeanFactoryInitializationAotProcessor {

	@Override
	public @Nullable BeanFactoryInitializationAotContribution processAheadOfTime(
			ConfigurableListableBeanFactory beanFactory) {
		if (!beanFactory.containsBean(ConfigurableApplicationContext.ENVIRONMENT_BEAN_NAME)) {
			return null;
		}
		String values = AotConditions
			.values(beanFactory.getBean(ConfigurableApplicationContext.ENVIRONMENT_BEAN_NAME, Environment.class));
		return (generationContext, code) -> {
			// in this package, where the check is visible, not in the application's
			GeneratedClass generated = generationContext.getGeneratedClasses()
				.addForFeatureComponent("OperatorAotConditions", AotConditions.class,
						(type) -> type
							.addJavadoc("Checks the operator properties that decided the beans at build time.")
							.addModifiers(Modifier.PUBLIC));
			GeneratedMethod method = generated.getMethods()
				.add("check",
						(builder) -> builder.addModifiers(Modifier.PUBLIC, Modifier.STATIC)
							.addParameter(Environment.class, "environment")
							.addStatement("$T.check(environment, $S)", AotConditions.class, values));
			code.addInitializer(method.toMethodReference());
		};
	}

}
