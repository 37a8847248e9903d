#!/bin/bash
set -e
cd /app
sqlite3 list.db "DELETE FROM subscribers WHERE rowid NOT IN (SELECT min(rowid) FROM subscribers GROUP BY lower(email)); UPDATE subscribers SET email = lower(email); CREATE UNIQUE INDEX subscribers_email ON subscribers(email);"
