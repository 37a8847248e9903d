#!/bin/bash
set -e
export GIT_AUTHOR_NAME='Bob Builder' GIT_AUTHOR_EMAIL=bob@example.com GIT_COMMITTER_NAME='Bob Builder' GIT_COMMITTER_EMAIL=bob@example.com
T=1767225600
c() { T=$((T+3600)); GIT_AUTHOR_DATE="@$T +0000" GIT_COMMITTER_DATE="@$T +0000" git commit -q "$@"; }

cd /app && git init -q app && cd app
printf 'def paginate(items, page, size):\n    start = page * size + 1\n    return items[start:start + size]\n' > pager.py
printf '# app\n' > README.md
git add . && c -m "Add pager"
printf 'def render(x):\n    return str(x)\n' > view.py && git add view.py && c -m "Add view"
git checkout -q -b feature/experimental
printf 'def api():\n    return "experimental"\n' > api.py && git add api.py && c -m "Experimental API"
sed -i 's/page \* size + 1/page * size/' pager.py && c -am "Fix off-by-one in paginate"
printf 'def api():\n    return "experimental v2"\n' > api.py && c -am "More experiments"
git checkout -q main
printf '# app\n\nPaging helpers.\n' > README.md && c -am "Describe the app"
