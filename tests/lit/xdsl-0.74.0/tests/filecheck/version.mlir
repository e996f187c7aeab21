// RUN: xdsl-opt --version | filecheck %s

//CHECK: xdsl-opt built from xdsl version {{[a-z0-9.+-]+}}
