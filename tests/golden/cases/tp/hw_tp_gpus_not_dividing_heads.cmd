args: tp --model 70b --gpus 3 --wire nvlink4
exit: 2
