#!/bin/bash
set -e
cd /app
jq -n --slurpfile b base.json --slurpfile o override.json '
  def m(a; b): reduce (b | keys_unsorted[]) as $k (a;
      if b[$k] == null then del(.[$k])
      elif (b[$k] | type) == "object" then .[$k] = m(if (.[$k] | type) == "object" then .[$k] else {} end; b[$k])
      else .[$k] = b[$k] end);
  m($b[0]; $o[0])' > merged.json
