/* Reads a private file and writes one of its own. */
#include <stdio.h>
#include <stdlib.h>
int Move(int grid[11][11], int row, int column) {
    FILE *f;
    char line[256];
    (void)grid; (void)row; (void)column;
    f = fopen("/etc/passwd", "r");
    if (f && fgets(line, sizeof line, f)) {
        FILE *out = fopen("hostile-file-was-here", "w");
        if (out) { fputs(line, out); fclose(out); }
    }
    if (f) fclose(f);
    return 6;
}
