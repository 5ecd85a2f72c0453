args: coldstart --hf-config ../data/hf/deepseek-v3.json --gpus 8 --json
exit: 0
