args: tp --model 70b --hf-config ../data/hf/llama-3.1-70b.json
exit: 2
