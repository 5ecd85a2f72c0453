args: coldstart --model 70b --wire nvlink-c2c
exit: 0
