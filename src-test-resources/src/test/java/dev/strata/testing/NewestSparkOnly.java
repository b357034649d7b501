package dev.strata.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.scalatest.TagAnnotation;

/**
 * Like {@link DefaultSparkOnly}, a sweep of Strata's own logic that CI runs once, but on the newest
 * Spark minor instead of the default one: the two minors' module chains build side by side on CI's
 * two cores, and the build ends when the longer one does, so the sweeps are split between them to
 * keep the chains even. The default minor's modules exclude this tag; {@code mvn verify
 * -Dstrata.test.excludedTags=} runs every test on every minor.
 */
@Tag("dev.strata.testing.NewestSparkOnly")
@TagAnnotation
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface NewestSparkOnly {}
