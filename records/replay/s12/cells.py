"""Prints auto's and random's cells @25 / @100 / @400 per table from strategy_replay's strategies.md files:
python3 records/replay/s12/cells.py records/replay/s12/*/strategies.md"""
import sys

for path in sys.argv[1:]:
    print("##", path)
    title = None
    for line in open(path):
        if line.startswith("| ") and "| 25 |" in line:
            title = line.split("|")[1].strip().split(" (")[0]
        elif line.startswith("| auto") or line.startswith("| random"):
            c = [x.strip() for x in line.split("|")[1:-1]]
            print(f"{title[:24]:24s} {c[0]:7s} @25 {c[1]:26s} @100 {c[3]:26s} @400 {c[5]}")
