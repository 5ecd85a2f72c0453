args: coldstart --model 70b --sweep tokens=256:4096
exit: 2
