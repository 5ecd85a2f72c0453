args: calibrate --model 70b --system aws-p4d
exit: 2
