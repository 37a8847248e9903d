#!/bin/sh
# The judge, as the judge's uid with the tests (the answer runs in its own JVM behind
# answer_command and never sees them): compile the tests against rlvr.Answer, run them with
# JUnit's console launcher in this JVM, and hand its XML report to rlvr in $REPORT.
set -u
out="${TMPDIR:-/tmp}"
jars=/usr/share/java
api="$jars/junit-jupiter-api.jar:$jars/apiguardian-api.jar:$jars/opentest4j.jar"
rlvr=/usr/local/share/rlvr-java/classes
javac -J-XX:-UsePerfData -J-XX:+UseSerialGC -cp "$api:$rlvr" -d "$out/tests" "$@" || exit 3
java -XX:-UsePerfData -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xmx192m \
    --add-opens java.base/java.io=ALL-UNNAMED \
    -jar "$jars/junit-platform-console-standalone.jar" --disable-banner --details=none \
    --class-path "$out/tests:$rlvr" --select-class PublicTest --select-class HiddenTest \
    --reports-dir "$out/reports"
rc=$?
cat "$out"/reports/*.xml > "$REPORT"
exit "$rc"
