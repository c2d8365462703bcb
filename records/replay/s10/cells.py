import sys,re
# prints table | auto@100 | auto@400 | random@100 | random@400 from a strategies.md
for path in sys.argv[1:]:
    print("##", path)
    title=None
    for line in open(path):
        if line.startswith('| ') and '| 25 |' in line:
            title=line.split('|')[1].strip()
        elif line.startswith('| auto') or line.startswith('| random'):
            c=[x.strip() for x in line.split('|')[1:-1]]
            print(f"{title[:40]:40s} {c[0]:7s} @100 {c[3]:28s} @400 {c[5]}")
