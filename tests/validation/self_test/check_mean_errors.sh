#!/bin/sh
# The report's mean |error| table against the per-case errors the program prints: "every case" is the mean of all
# three |errors|, "every training run" and "A" of the two cases with a stack, "largest" their maximum; each within
# 0.1 percentage point (the printed errors are rounded to 0.1%).
#   check_mean_errors.sh VALIDATE_PUBLISHED CASES.yaml REPORT.md
set -eu
report=$3
"$1" "$2" --write "$report" >"$report.out"
errors=$(sed -n 's/.*error [+−-]\{0,1\}\([0-9.]*\)%.*/\1/p' "$report.out")
row() { grep "^| $1 |" "$report" | sed 's/%//g' | awk -F'|' '{print $3, $4, $5}'; }
echo "$errors" | awk -v all="$(row 'every case')" -v runs="$(row 'every training run')" -v a="$(row 'A')" '
    { e[NR] = $1 }
    function near(x, y) { return x - y < 0.1 && y - x < 0.1 }
    END {
        if (NR != 3) { print "FAIL: expected 3 printed errors, found " NR; exit 1 }
        split(all, t, " "); split(runs, r, " "); split(a, s, " ")
        max2 = e[1] > e[2] ? e[1] : e[2]; max3 = max2 > e[3] ? max2 : e[3]
        if (t[1] != 3 || !near(t[2], (e[1] + e[2] + e[3]) / 3) || !near(t[3], max3)) { print "FAIL: every case: " all; exit 1 }
        if (r[1] != 2 || !near(r[2], (e[1] + e[2]) / 2) || !near(r[3], max2)) { print "FAIL: training runs: " runs; exit 1 }
        if (s[1] != 2 || !near(s[2], (e[1] + e[2]) / 2)) { print "FAIL: stack A: " a; exit 1 }
        print "ok: mean |error| " t[2] "% over 3 cases, " s[2] "% over stack A"
    }'
