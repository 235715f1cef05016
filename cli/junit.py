"""A JUnit XML report of a test run: the format CI systems (GitHub, GitLab,
Jenkins) read. One <testcase> per file; a failed assert or a golden mismatch
is a <failure>, anything else that stopped the file an <error>."""
import os
import xml.etree.ElementTree as ET

__all__ = ["write_junit", "junit_tree"]


def junit_tree(results, elapsed, suite="autodiff"):
    failures = sum(r.outcome == "failed" for r in results)
    errors = sum(r.outcome == "error" for r in results)
    root = ET.Element("testsuites", name=suite, tests=str(len(results)), failures=str(failures),
                      errors=str(errors), time=f"{elapsed:.3f}")
    node = ET.SubElement(root, "testsuite", name=suite, tests=str(len(results)), failures=str(failures),
                         errors=str(errors), skipped="0", time=f"{elapsed:.3f}")
    for r in results:
        folder, name = os.path.split(r.path)
        case = ET.SubElement(node, "testcase", classname=folder.replace(os.sep, ".") or ".", name=name,
                             file=r.path, time=f"{r.duration:.3f}")
        if r.line is not None:
            case.set("line", str(r.line))
        if r.outcome != "passed":
            child = ET.SubElement(case, "failure" if r.outcome == "failed" else "error", message=r.message)
            child.text = r.report
        if r.output:
            ET.SubElement(case, "system-out").text = r.output
    return ET.ElementTree(root)


def write_junit(path, results, elapsed):
    tree = junit_tree(results, elapsed)
    ET.indent(tree)
    tree.write(path, encoding="utf-8", xml_declaration=True)
