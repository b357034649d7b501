package dev.strata.index.levels;

import static dev.strata.index.fixtures.Files.file;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.index.source.SourceFile;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.apache.paimon.io.DataFileMeta;
import org.junit.jupiter.api.Test;

class LevelPlannerTest {

    /** A unit under test: a level and its ordered sources. */
    static final class Unit {
        final int level;
        final List<SourceFile> sources;

        Unit(int level, SourceFile... sources) {
            this.level = level;
            this.sources = Arrays.asList(sources);
        }
    }

    private final LevelPlanner<Unit> planner = new LevelPlanner<>(u -> u.level, u -> u.sources);

    private static List<String> names(List<DataFileMeta> files) {
        return files.stream()
                .map(DataFileMeta::fileName)
                .collect(java.util.stream.Collectors.toList());
    }

    @Test
    void buildsMissingLevelWithFilesSortedByName() {
        Optional<LevelPlanner.Plan<Unit>> plan =
                planner.pick(
                        Collections.emptyList(),
                        Arrays.asList(file("data-b", 20, 2), file("data-a", 10, 2)));
        assertThat(plan).isPresent();
        assertThat(plan.get().dataLevel()).isEqualTo(2);
        assertThat(plan.get().inputs()).isEmpty();
        assertThat(names(plan.get().sourceFiles())).containsExactly("data-a", "data-b");
    }

    @Test
    void sortsByStringOrderNotNumericOrder() {
        Optional<LevelPlanner.Plan<Unit>> plan =
                planner.pick(
                        Collections.emptyList(),
                        Arrays.asList(file("data-10", 1, 1), file("data-9", 1, 1)));
        assertThat(names(plan.get().sourceFiles())).containsExactly("data-10", "data-9");
    }

    @Test
    void planIsCurrentUntilLevelChanges() {
        List<DataFileMeta> active = Arrays.asList(file("data-a", 10, 2));
        LevelPlanner.Plan<Unit> plan = planner.pick(Collections.emptyList(), active).get();
        assertThat(planner.isCurrent(plan, active)).isTrue();
        assertThat(
                        planner.isCurrent(
                                plan, Arrays.asList(file("data-a", 10, 2), file("data-b", 20, 2))))
                .isFalse();
        assertThat(planner.isCurrent(plan, Arrays.asList(file("data-a", 11, 2)))).isFalse();
    }

    @Test
    void rebuildsUnitThatCoversOnlyPartOfItsLevel() {
        Unit partial = new Unit(2, new SourceFile("data-a", 10));
        LevelPlanner.Plan<Unit> plan =
                planner.pick(
                                Collections.singletonList(partial),
                                Arrays.asList(file("data-a", 10, 2), file("data-b", 20, 2)))
                        .get();
        assertThat(plan.dataLevel()).isEqualTo(2);
        assertThat(plan.inputs()).containsExactly(partial);
        assertThat(names(plan.sourceFiles())).containsExactly("data-a", "data-b");
    }

    @Test
    void dropsUnitWhoseLevelHasNoFiles() {
        Unit orphan = new Unit(3, new SourceFile("gone", 5));
        LevelPlanner.Plan<Unit> plan =
                planner.pick(Collections.singletonList(orphan), Collections.emptyList()).get();
        assertThat(plan.isDrop()).isTrue();
        assertThat(plan.dataLevel()).isEqualTo(3);
        assertThat(plan.inputs()).containsExactly(orphan);
    }

    @Test
    void exactMatchNeedsNoWork() {
        Unit unit = new Unit(2, new SourceFile("data-a", 10));
        assertThat(
                        planner.pick(
                                Collections.singletonList(unit),
                                Collections.singletonList(file("data-a", 10, 2))))
                .isEmpty();
    }

    @Test
    void lowestLevelNeedingWorkWinsAndLevelZeroIsIgnored() {
        Unit l1 = new Unit(1, new SourceFile("x", 1));
        LevelPlanner.Plan<Unit> plan =
                planner.pick(
                                Collections.singletonList(l1),
                                Arrays.asList(
                                        file("zero", 3, 0),
                                        file("x", 1, 1),
                                        file("y", 2, 4),
                                        file("w", 2, 3)))
                        .get();
        assertThat(plan.dataLevel()).isEqualTo(3);
        assertThat(names(plan.sourceFiles())).containsExactly("w");
    }

    @Test
    void rejectsTwoUnitsOnOneLevel() {
        assertThatThrownBy(
                        () ->
                                planner.pick(
                                        Arrays.asList(new Unit(2), new Unit(2)),
                                        Collections.emptyList()))
                .hasMessageContaining("data level 2");
    }
}
