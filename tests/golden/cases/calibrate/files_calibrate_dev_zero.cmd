args: calibrate /dev/zero --wire nvlink4
exit: 2
