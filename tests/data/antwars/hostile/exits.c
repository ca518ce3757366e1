/* Ends the process in its first move. */
#include <stdlib.h>
int Move(int grid[11][11], int row, int column) {
    (void)grid; (void)row; (void)column;
    exit(0);
}
