args: tp --model someone/Llama-3.1-8B-Instruct-AWQ --wire nvlink4
exit: 2
