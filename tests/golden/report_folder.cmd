# report -o DIR replaces its folder whole, so it takes only a new or empty
# folder or an earlier report's (audit of 2026-12-04: a source folder given
# as -o was deleted, and the report left mode 0700). A user's folder is
# refused before anything is written and keeps its files; a report folder
# is replaced and gets the umask's mode; a link to a folder is refused.
T=$(mktemp -d) && mkdir -p "$T/proj/src" && echo 'int main(void) { return 0; }' > "$T/proj/src/main.c"
out=$($CR report --topo h200-1 -o "$T/proj" 2>&1); rc=$?; echo "$out" | sed "s|$T|T|g"; echo "exit $rc"
ls "$T/proj/src"
umask 022
$CR report --topo h200-1 -o "$T/rep" > /dev/null 2>&1; echo "exit $?"
$CR report --topo h200-1 -o "$T/rep" > /dev/null 2>&1; echo "exit $?"
ls -ld "$T/rep" | cut -c1-10
ln -s rep "$T/lnk" && out=$($CR report --topo h200-1 -o "$T/lnk" 2>&1); rc=$?; echo "$out" | sed "s|$T|T|g"; echo "exit $rc"
rm -rf "$T"
