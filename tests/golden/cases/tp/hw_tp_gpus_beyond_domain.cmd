args: tp --hidden 8192 --layers 80 --gpus 512 --wire nvlink4
exit: 2
