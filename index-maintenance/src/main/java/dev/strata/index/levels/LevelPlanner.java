package dev.strata.index.levels;

import dev.strata.index.source.SourceFile;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import org.apache.paimon.io.DataFileMeta;

/**
 * Plans index work per data level of one bucket, for any index unit that covers exactly one level's
 * files (sorted by file name). The lowest level whose unit is missing or does not match its files
 * is planned first; a plan without sources removes the unit.
 *
 * @param <T> the index unit (e.g. an archive's manifest record)
 */
public final class LevelPlanner<T> {

    private final ToIntFunction<T> levelOf;
    private final Function<T, List<SourceFile>> sourcesOf;

    public LevelPlanner(ToIntFunction<T> levelOf, Function<T, List<SourceFile>> sourcesOf) {
        this.levelOf = Objects.requireNonNull(levelOf);
        this.sourcesOf = Objects.requireNonNull(sourcesOf);
    }

    /** The next piece of work, or empty when every level's unit matches its files. */
    public Optional<Plan<T>> pick(Collection<T> units, Collection<DataFileMeta> activeFiles) {
        TreeMap<Integer, List<DataFileMeta>> filesByLevel = desiredByLevel(activeFiles);
        TreeMap<Integer, T> unitByLevel = new TreeMap<>();
        for (T unit : units) {
            int level = levelOf.applyAsInt(unit);
            if (level <= 0) {
                throw new IllegalArgumentException(
                        "Primary-key index data level must be positive, but was " + level + ".");
            }
            if (unitByLevel.putIfAbsent(level, unit) != null) {
                throw new IllegalArgumentException(
                        "Multiple primary-key index units exist for data level " + level + ".");
            }
        }
        TreeSet<Integer> levels = new TreeSet<>(filesByLevel.keySet());
        levels.addAll(unitByLevel.keySet());
        for (int level : levels) {
            List<DataFileMeta> files = filesByLevel.getOrDefault(level, Collections.emptyList());
            T unit = unitByLevel.get(level);
            if (unit == null) {
                return Optional.of(new Plan<>(level, Collections.emptyList(), files));
            }
            if (!sameSources(sourcesOf.apply(unit), files)) {
                return Optional.of(new Plan<>(level, Collections.singletonList(unit), files));
            }
        }
        return Optional.empty();
    }

    /** Whether the plan's level still has exactly the plan's files (names and row counts). */
    public boolean isCurrent(Plan<T> plan, Collection<DataFileMeta> activeFiles) {
        List<DataFileMeta> now = new ArrayList<>();
        for (DataFileMeta file : activeFiles) {
            if (file.level() == plan.dataLevel()) {
                now.add(file);
            }
        }
        now.sort(Comparator.comparing(DataFileMeta::fileName));
        List<DataFileMeta> planned = plan.sourceFiles();
        if (now.size() != planned.size()) {
            return false;
        }
        for (int i = 0; i < now.size(); i++) {
            if (!now.get(i).fileName().equals(planned.get(i).fileName())
                    || now.get(i).rowCount() != planned.get(i).rowCount()) {
                return false;
            }
        }
        return true;
    }

    /** The desired sources of every level above 0, each sorted by file name. */
    public static TreeMap<Integer, List<DataFileMeta>> desiredByLevel(
            Collection<DataFileMeta> files) {
        TreeMap<Integer, List<DataFileMeta>> byLevel = new TreeMap<>();
        for (DataFileMeta file : files) {
            if (file.level() > 0) {
                byLevel.computeIfAbsent(file.level(), l -> new ArrayList<>()).add(file);
            }
        }
        for (Map.Entry<Integer, List<DataFileMeta>> e : byLevel.entrySet()) {
            e.getValue().sort(Comparator.comparing(DataFileMeta::fileName));
        }
        return byLevel;
    }

    /** Whether the ordered source list equals the ordered files by name and row count. */
    public static boolean sameSources(List<SourceFile> sources, List<DataFileMeta> files) {
        if (sources.size() != files.size()) {
            return false;
        }
        for (int i = 0; i < sources.size(); i++) {
            if (!sources.get(i).fileName().equals(files.get(i).fileName())
                    || sources.get(i).rowCount() != files.get(i).rowCount()) {
                return false;
            }
        }
        return true;
    }

    /**
     * One piece of work: bring level {@code dataLevel} to {@code sourceFiles}, replacing {@code
     * inputs}. An empty {@code sourceFiles} means: drop the inputs, build nothing.
     */
    public static final class Plan<T> {
        private final int dataLevel;
        private final List<T> inputs;
        private final List<DataFileMeta> sourceFiles;

        public Plan(int dataLevel, List<T> inputs, List<DataFileMeta> sourceFiles) {
            this.dataLevel = dataLevel;
            this.inputs = Collections.unmodifiableList(new ArrayList<>(inputs));
            this.sourceFiles = Collections.unmodifiableList(new ArrayList<>(sourceFiles));
        }

        public int dataLevel() {
            return dataLevel;
        }

        public List<T> inputs() {
            return inputs;
        }

        public List<DataFileMeta> sourceFiles() {
            return sourceFiles;
        }

        public boolean isDrop() {
            return sourceFiles.isEmpty();
        }

        @Override
        public String toString() {
            List<String> names = new ArrayList<>();
            for (DataFileMeta f : sourceFiles) {
                names.add(f.fileName());
            }
            return "Plan{level=" + dataLevel + ", inputs=" + inputs + ", sources=" + names + "}";
        }
    }
}
