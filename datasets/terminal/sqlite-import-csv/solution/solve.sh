#!/bin/bash
set -e
cd /app
python3 - <<'PY'
import csv, sqlite3
con = sqlite3.connect("people.db")
con.execute("CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT UNIQUE, age INTEGER)")
for r in csv.DictReader(open("people.csv", newline="")):
    con.execute("INSERT INTO people VALUES (?, ?, ?, ?)",
                (int(r["id"]), r["name"], r["email"] or None, int(r["age"]) if r["age"] else None))
con.commit()
PY
