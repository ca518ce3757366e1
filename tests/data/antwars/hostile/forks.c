/* Starts a process, and a shell command that would leave a file. */
#include <stdlib.h>
#include <unistd.h>
int Move(int grid[11][11], int row, int column) {
    (void)grid; (void)row; (void)column;
    if (fork() == 0) _exit(0);
    system("touch hostile-shell-was-here");
    return 4;
}
