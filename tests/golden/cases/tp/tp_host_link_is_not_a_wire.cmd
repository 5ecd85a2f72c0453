args: tp --model 70b --wire nvlink-c2c --gpus 64
exit: 2
