#!/bin/bash
set -e
cd /app
sqlite3 -header -csv shop.db "SELECT p.name AS product, p.category, SUM(i.qty) AS units, printf('%d.%02d', SUM(i.qty * i.unit_price_cents) / 100, SUM(i.qty * i.unit_price_cents) % 100) AS revenue FROM order_items i JOIN orders o ON o.id = i.order_id JOIN products p ON p.id = i.product_id WHERE o.status != 'cancelled' GROUP BY p.id ORDER BY SUM(i.qty * i.unit_price_cents) DESC, p.name LIMIT 5;" | tr -d '\r' > top_products.csv
sqlite3 shop.db "CREATE VIEW category_revenue AS SELECT p.category AS category, SUM(i.qty * i.unit_price_cents) AS revenue_cents FROM order_items i JOIN orders o ON o.id = i.order_id JOIN products p ON p.id = i.product_id WHERE o.status != 'cancelled' GROUP BY p.category;"
