/* Prints on standard output and reads standard input, then answers 9. */
#include <stdio.h>
int Move(int grid[11][11], int row, int column) {
    int c;
    (void)grid; (void)row; (void)column;
    printf("hello from the player\n");
    fflush(stdout);
    c = getchar();
    return c == EOF ? 9 : 5;
}
