package dev.strata.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.scalatest.TagAnnotation;

/**
 * A test (JUnit class or method, ScalaTest suite) whose subject is Strata's own file, commit or
 * index logic under a random or exhaustive sweep: the same code answers on every Spark minor, so CI
 * runs it once, on the default minor (others, {@link NewestSparkOnly}, on the newest). The other
 * minors' modules exclude the tag (property {@code strata.test.excludedTags}); {@code mvn verify
 * -Dstrata.test.excludedTags=} runs them there too. A test of how Spark drives Strata (catalog,
 * DDL, plans, rules, procedures, functions, row-level commands, the launcher) never carries it.
 */
@Tag("dev.strata.testing.DefaultSparkOnly")
@TagAnnotation
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface DefaultSparkOnly {}
