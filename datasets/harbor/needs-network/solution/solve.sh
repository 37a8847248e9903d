#!/bin/bash
curl -sSfL https://example.com/ -o /app/page.html
