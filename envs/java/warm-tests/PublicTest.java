import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import rlvr.Answer;

// The judge's class-data-sharing warm-up (see ../Dockerfile): what a java-tests test file does,
// so that javac, JUnit's launcher and the XML report load their classes at build time. No
// answer runs here: the call fails as Answer.Unanswered.
public class PublicTest {
    @Test
    void passes() {
        List<Long> xs = List.of(3L, 1L, 2L);
        assertEquals(List.of(1L, 2L, 3L), xs.stream().sorted().toList());
        assertEquals(2, Collections.frequency(List.of("a", "b", "a"), "a"));
        assertNull(null);
        assertTrue("abc".repeat(2).contains("ca"), "repeat");
    }

    @Test
    void fails() {
        assertEquals(List.of("x"), List.of("y"));
    }

    @Test
    void callsNobody() {
        assertThrows(Answer.Unanswered.class, () -> Answer.call("f", 1, "s", List.of(2)));
    }
}
