package dev.strata.shredding.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

class DamagedFileExceptionTest {

    @Test
    void theMessageNamesTheFileWhatWasExpectedAndFoundAndWhatToDo() {
        DamagedFileException e =
                new DamagedFileException("/w/t/data-1.parquet", "magic", "PAR1", "XXXX");
        assertThat(e)
                .hasMessage(
                        "Cannot read /w/t/data-1.parquet: magic: expected PAR1, found XXXX. The file is"
                                + " damaged; restore it or rewrite the table from a good copy.");
        assertThat(e.file()).isEqualTo("/w/t/data-1.parquet");
        assertThat(e.expected()).contains("PAR1");
        assertThat(e.found()).contains("XXXX");
        DamagedFileException why =
                new DamagedFileException("f", "row group 0 cannot be decoded", null);
        assertThat(why).hasMessageStartingWith("Cannot read f: row group 0 cannot be decoded. ");
        assertThat(why.expected()).isEmpty();
        assertThat(why.found()).isEmpty();
    }

    @Test
    void isFoundInACauseChainAlsoWhenUnchecked() {
        DamagedFileException damage = new DamagedFileException("f", "what", 1, 2);
        RuntimeException wrapped = new IllegalStateException("task failed", damage.unchecked());
        assertThat(DamagedFileException.in(wrapped)).containsSame(damage);
        assertThat(DamagedFileException.in(new IOException("other"))).isEmpty();
        assertThat(DamagedFileException.in(null)).isEmpty();
        assertThat(damage.unchecked()).isInstanceOf(UncheckedIOException.class).hasCause(damage);
    }

    @Test
    void reportedWithAnotherCauseKeepsTheFileAndWhereItWasFound() {
        DamagedFileException damage = new DamagedFileException("f", "what", 1, 2);
        RuntimeException failure = new RuntimeException("Retry fail after 10 times");
        DamagedFileException again = new DamagedFileException(damage, failure);
        assertThat(again).hasMessage(damage.getMessage()).hasCause(failure);
        assertThat(again.file()).isEqualTo("f");
        assertThat(again.expected()).contains("1");
        assertThat(again.getSuppressed()).containsExactly(damage);
        // Already in the cause chain: not attached twice.
        DamagedFileException chained =
                new DamagedFileException(damage, new RuntimeException("wrapper", damage));
        assertThat(chained.getSuppressed()).isEmpty();
    }
}
