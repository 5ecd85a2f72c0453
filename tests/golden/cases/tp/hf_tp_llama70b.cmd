args: tp --hf-config ../data/hf/llama-3.1-70b.json --tokens 4096 --wire pcie5
exit: 0
