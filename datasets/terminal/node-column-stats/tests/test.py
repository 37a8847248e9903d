import shlex

CASES = [
    (
        "temp",
        "id,temp,city,load\n0,,Rome,112.375\n1,n/a,Oslo,117.5\n2,n/a,Rome,1.375\n3,35,Oslo,101.25\n4,n/a,Rome,41.875\n5,,Rome,26.125\n6,n/a,Oslo,16.625\n7,-4.5,Rome,74.375\n8,n/a,Rome,30.5\n9,23,Oslo,16.0\n10,37.8,Rome,106.25\n11,31,Rome,73.125\n12,,Oslo,59.5\n13,,Rome,108.25\n14,,Oslo,33.625\n15,,Rome,61.5\n16,,Rome,9.375\n17,1.4,Oslo,76.375\n18,n/a,Oslo,107.0\n19,n/a,Rome,34.625\n20,n/a,Rome,75.375\n21,n/a,Oslo,110.625\n22,n/a,Oslo,27.125\n23,34.4,Oslo,23.375\n24,n/a,Rome,31.0\n25,n/a,Rome,43.25\n26,,Rome,11.625\n27,,Rome,82.0\n28,10,Rome,119.625\n29,n/a,Oslo,68.125\n",
        "count=8 min=-4.50 max=37.80 mean=21.01 median=27.00\n",
    ),
    (
        "load",
        "id,temp,city,load\n0,n/a,Oslo,99.125\n1,,Oslo,55.0\n2,,Rome,99.5\n3,17,Rome,112.125\n4,23.7,Oslo,61.875\n5,,Oslo,123.25\n6,39.7,Rome,9.375\n7,,Oslo,59.75\n8,19,Rome,54.625\n9,,Rome,81.75\n10,,Oslo,78.875\n11,8,Rome,31.875\n12,27.7,Oslo,5.75\n13,33.6,Oslo,19.0\n14,-3,Rome,123.875\n15,-1,Oslo,56.625\n16,36.2,Rome,16.75\n17,,Oslo,46.875\n18,n/a,Oslo,75.75\n19,23.5,Rome,94.875\n20,37,Oslo,51.625\n21,35.0,Oslo,35.625\n22,17,Rome,2.125\n23,n/a,Rome,108.625\n24,n/a,Oslo,45.75\n",
        "count=25 min=2.13 max=123.88 mean=62.02 median=56.63\n",
    ),
    (
        "temp",
        "id,temp,city,load\n0,n/a,Oslo,109.375\n1,,Rome,79.0\n2,-17.1,Rome,87.75\n3,n/a,Rome,61.125\n4,n/a,Rome,78.875\n5,-15.8,Oslo,70.75\n6,24,Rome,111.375\n",
        "count=3 min=-17.10 max=24.00 mean=-2.97 median=-15.80\n",
    ),
    (
        "load",
        "id,load\n1,2\n2,4\n3,5\n4,100\n",
        "count=4 min=2.00 max=100.00 mean=27.75 median=4.50\n",
    ),
    ("temp", "id,temp\n1,x\n2,\n", "count=0\n"),
]


def test_sample(ws):
    run = _feed(ws, ["node", "colstats.js", "load"], ws.read_text("sample.csv"))
    assert (
        run.exit_code == 0
        and run.output == "count=12 min=1.25 max=108.38 mean=51.40 median=55.69\n"
    ), run.output[:300]


def test_new_inputs(ws):
    for col, text, want in CASES:
        run = _feed(ws, ["node", "colstats.js", col], text)
        assert run.exit_code == 0 and run.output == want, (
            f"column {col}: got {run.output[:200]!r}, expected {want!r}"
        )


def test_unknown_column(ws):
    run = ws.run('node colstats.js humidity < sample.csv 2>/dev/null; echo "exit=$?"')
    assert run.output == "exit=2\n", run.output[:200]


def _feed(ws, argv, stdin):
    """Run argv with `stdin` as its input, passed through a file (the program may exit before reading it)."""
    return ws.run('f=$(mktemp) && cat > "$f" && exec ' + shlex.join(argv) + ' < "$f"', stdin=stdin)
