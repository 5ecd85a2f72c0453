args: coldstart --model 70b --host-link nvlink4
exit: 2
