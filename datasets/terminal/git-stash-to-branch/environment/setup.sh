#!/bin/bash
set -e
export GIT_AUTHOR_NAME='Bob Builder' GIT_AUTHOR_EMAIL=bob@example.com GIT_COMMITTER_NAME='Bob Builder' GIT_COMMITTER_EMAIL=bob@example.com
T=1767225600
c() { T=$((T+3600)); GIT_AUTHOR_DATE="@$T +0000" GIT_COMMITTER_DATE="@$T +0000" git commit -q "$@"; }

cd /app && git init -q worker && cd worker
printf 'def run(job):\n    return job()\n' > worker.py && printf '# worker\n' > README.md && git add . && c -m "Add worker"
printf 'def run(job):\n    """Run a job."""\n    return job()\n' > worker.py && c -am "Document run"
printf 'RETRIES = 3\n\n\ndef run(job):\n    """Run a job, retrying."""\n    for _ in range(RETRIES):\n        try:\n            return job()\n        except Exception:\n            pass\n    return job()\n' > worker.py
git stash push -q -m "wip: add retry"
printf '# worker\n\nTODO: notes\n' > README.md
git stash push -q -m "wip: unrelated notes"
