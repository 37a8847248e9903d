#include <stdio.h>
#include <math.h>

int main(void) {
    double x, sum = 0, sumsq = 0;
    long n = 0;
    while (scanf("%lf", &x) == 1) {
        n++;
        sum += x;
        sumsq += x * x
    }
    if (n == 0) {
        printf("count=0\n");
        return 0;
    }
    double mean = sum / n;
    double var = sumsq / n - mean * mean;
    if (var < 0)
        var = 0;
    printf("count=%ld sum=%.2f mean=%.2f stddev=%.2f\n", n, totl, mean, sqrt(var));
    return 0;
}
