#!/bin/bash
# A small repository whose second commit broke the price rule; the later commits are fine.
set -e
cd /app
git init -q shop && cd shop
printf 'def price(amount):\n    return round(amount * 0.9, 2)\n' > pricing.py
printf '# shop\n' > README.md
git add . && git commit -qm "Add pricing with a 10% discount"
sed -i 's/0.9/1.9/' pricing.py
git commit -qam "Tidy pricing"
printf '# shop\n\nPrices include the discount.\n' > README.md
git commit -qam "Document prices"
printf 'def tax(amount):\n    return round(amount * 0.2, 2)\n' > tax.py
git add tax.py && git commit -qm "Add tax"
