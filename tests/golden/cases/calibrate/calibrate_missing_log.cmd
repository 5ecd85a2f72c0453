args: calibrate no_such.log --wire nvlink4
exit: 2
