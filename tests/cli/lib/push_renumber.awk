# The [push] entries' literal values, after the problem size's, as 2, 3, 4, ... in file order (the block's order).
/^\[/ { sec = $0 }
sec == "[push]" && /^[A-Za-z_]/ && $1 != "n" {
    line = $0; off = ""
    c = index(line, ";"); if (c) line = substr(line, 1, c - 1)
    o = index(line, "@offset"); if (o) { off = " " substr(line, o); line = substr(line, 1, o - 1) }
    m = split(line, f, ","); out = f[1]; isf = f[1] ~ /float32/
    for (j = 2; j <= m; j++) { v = ++k + 1; out = out ", " (isf ? v ".0" : v) }
    sub(/[ \t]+$/, "", off); print out off; next
}
{ print }
