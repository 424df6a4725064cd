package dev.mockapns;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;

/**
 * The words of an unmet expectation, in the other kits' style: what was expected, what was received instead, closest
 * match first, each mismatch spelled out. The mock decides what matches: the pushes that have each field are asked
 * of its control API one field at a time, so the ranking follows its rules (a token compared case-insensitively).
 */
final class Expectations {
    /** How many pushes a failure message lists before summing up the rest (as the Swift kit does). */
    static final int LIST_LIMIT = 5;

    private Expectations() {}

    /** The recorded pushes a control API query ({@code ?topic=...&since=3}, or "") selects, oldest first. */
    interface Source {
        List<Notification> fetch(String query);
    }

    /** Whether {@code found} matching pushes meet {@code count}: null means at least one, n exactly n. */
    static boolean satisfied(Integer count, int found) {
        return count == null ? found >= 1 : found == count;
    }

    /**
     * The failure message for {@code filter}, whose query returned {@code matching}; {@code atLeast} words a count
     * as a minimum (for waitFor).
     */
    static String failureMessage(Filter filter, List<Notification> matching, Source source, boolean atLeast) {
        Integer count = filter.count();
        String header = "Expected " + filter.describe(atLeast);
        List<Notification> all = source.fetch(Filter.query(List.of(), filter.since()));
        if (all.isEmpty()) {
            return header + ", but the mock received no notifications"
                    + (filter.since() != null ? " after #" + filter.since() : "")
                    + ". Is the sender pointed at mock.url(), trusting mock.sslContext() and speaking HTTP/2?";
        }
        List<String> lines = new ArrayList<>();
        if (count != null && !atLeast && matching.size() > count) {
            lines.add(header + ", but " + matching.size() + " matched:");
            listed(matching, lines, n -> List.of("  " + n.summary()));
            return String.join("\n", lines);
        }
        List<Filter.Criterion> criteria = filter.criteria();
        if (criteria.isEmpty()) {
            lines.add(header + ", but the mock received only " + all.size() + ".");
        } else if (!matching.isEmpty()) {
            StringJoiner numbers = new StringJoiner(", ");
            for (Notification n : matching) numbers.add("#" + n.seq());
            lines.add(header + ", but only " + matching.size() + " matched (" + numbers + ").");
        } else if (all.size() == 1) {
            lines.add(header + ", but the only notification received did not match.");
        } else {
            lines.add(header + ", but none of the " + all.size() + " received matched.");
        }

        // Which recorded pushes have each field, as the mock decides it.
        List<Set<Long>> has = new ArrayList<>();
        for (Filter.Criterion c : criteria) {
            Set<Long> seqs = new HashSet<>();
            for (Notification n : source.fetch(Filter.query(List.of(c), filter.since()))) seqs.add(n.seq());
            has.add(seqs);
        }
        Set<Long> matched = new HashSet<>();
        for (Notification n : matching) matched.add(n.seq());
        List<Notification> others = new ArrayList<>();
        for (Notification n : all) {
            if (!matched.contains(n.seq())) others.add(n);
        }
        // Most fields met first; ties in the order received (List.sort is stable).
        others.sort(Comparator.comparingInt(n -> -met(has, n)));
        if (!others.isEmpty()) {
            lines.add(matching.isEmpty() ? "Received, closest match first:" : "Other notifications, closest match first:");
        }
        listed(others, lines, n -> {
            List<String> entry = new ArrayList<>();
            entry.add("  " + n.summary() + (criteria.size() > 1
                    ? " — has " + met(has, n) + " of " + criteria.size() : ""));
            for (int i = 0; i < criteria.size(); i++) {
                if (!has.get(i).contains(n.seq())) {
                    Filter.Criterion c = criteria.get(i);
                    entry.add("      " + c.name + ": expected " + c.value + ", got " + c.actual(n));
                }
            }
            return entry;
        });
        return String.join("\n", lines);
    }

    private static int met(List<Set<Long>> has, Notification n) {
        int met = 0;
        for (Set<Long> seqs : has) {
            if (seqs.contains(n.seq())) met++;
        }
        return met;
    }

    private interface Lines {
        List<String> of(Notification n);
    }

    private static void listed(List<Notification> pushes, List<String> lines, Lines entry) {
        for (int i = 0; i < pushes.size(); i++) {
            if (i == LIST_LIMIT) {
                lines.add("  … and " + (pushes.size() - LIST_LIMIT) + " more");
                return;
            }
            lines.addAll(entry.of(pushes.get(i)));
        }
    }
}
