args: coldstart --model 70b --sweep gpus=80:81:1
exit: 0
