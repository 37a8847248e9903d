#!/bin/bash
cd /app
touch -d '2024-07-02 12:00' reports/r00.csv
touch -d '2025-02-20 12:00' reports/q1/r03.csv
touch -d '2025-04-03 12:00' reports/q1/r10.csv
touch -d '2024-12-02 12:00' reports/q3/deep/r13.csv
touch -d '2025-12-28 12:00' reports/q1/r15.csv
touch -d '2026-07-19 12:00' reports/q2/r01.csv
touch -d '2026-05-05 12:00' reports/q3/deep/r02.csv
touch -d '2026-07-18 12:00' reports/q3/deep/r04.csv
touch -d '2026-04-21 12:00' reports/r05.csv
touch -d '2026-09-27 12:00' reports/q2/r06.csv
touch -d '2026-04-12 12:00' reports/r07.csv
touch -d '2026-03-02 12:00' reports/q3/deep/r08.csv
touch -d '2026-06-11 12:00' reports/q1/r09.csv
touch -d '2026-11-07 12:00' reports/q2/r11.csv
touch -d '2026-04-06 12:00' reports/q1/r12.csv
touch -d '2026-06-07 12:00' reports/q2/r14.csv
touch -d '2026-01-01 00:00:00' reports/q1/boundary.csv
touch -d '2025-12-31 23:59:00' reports/q1/lastyear.csv
