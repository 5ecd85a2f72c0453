args: coldstart --model 70b --host-link nvlink-c2c
exit: 0
