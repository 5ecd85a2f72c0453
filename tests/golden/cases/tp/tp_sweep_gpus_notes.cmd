args: tp --model 70b --wire nvlink4 --sweep gpus=2:8:1 --tokens 2048
exit: 0
