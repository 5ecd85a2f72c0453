args: coldstart --model 70b --wire nvlink4
exit: 2
