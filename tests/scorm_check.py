"""What the SCORM specifications require of a package's imsmanifest.xml, checked by hand (ADL's
XSDs ship in no package this project can take on): SCORM 1.2 (IMS Content Packaging 1.1.2 and
ADL's adlcp 1.2) and SCORM 2004 4th Edition (IMS CP 1.1.4, adlcp 1.3). Used for the packages of
`make scorm` (tests/test_scorm.py) and for the zip the page's button builds (tests/e2e/)."""

import zipfile
import xml.etree.ElementTree as ET
from urllib.parse import parse_qs

CP = {"1.2": "http://www.imsproject.org/xsd/imscp_rootv1p1p2", "2004": "http://www.imsglobal.org/xsd/imscp_v1p1"}
ADLCP = {"1.2": "http://www.adlnet.org/xsd/adlcp_rootv1p2", "2004": "http://www.adlnet.org/xsd/adlcp_v1p3"}
SCHEMA_VERSION = {"1.2": "1.2", "2004": "2004 4th Edition"}
SCORM_TYPE = {"1.2": "scormtype", "2004": "scormType"}  # (the attribute's case differs between versions)


def check_package(path, version):
    """Assert that the zip at `path` is a SCORM `version` package of one SCO as docs/DESIGN.md says;
    returns (launch href with its parameters, the manifest's root element, the zip's names)."""
    with zipfile.ZipFile(path) as z:
        names = set(z.namelist())
        assert "imsmanifest.xml" in names, "the manifest must be at the zip's root"
        assert z.testzip() is None
        root = ET.fromstring(z.read("imsmanifest.xml"))
    cp, adlcp = CP[version], ADLCP[version]
    q = lambda tag: f"{{{cp}}}{tag}"  # noqa: E731
    assert root.tag == q("manifest"), f"root element {root.tag}: not the IMS CP namespace of SCORM {version}"
    assert root.get("identifier"), "manifest@identifier is required"
    metadata = root.find(q("metadata"))
    assert metadata is not None and metadata.findtext(q("schema")) == "ADL SCORM"
    assert metadata.findtext(q("schemaversion")) == SCHEMA_VERSION[version]
    organizations = root.find(q("organizations"))
    assert organizations is not None
    default = organizations.get("default")
    organization = [o for o in organizations.findall(q("organization")) if o.get("identifier") == default]
    assert len(organization) == 1, "organizations@default must name an organization"
    assert organization[0].findtext(q("title"))
    items = organization[0].findall(q("item"))
    assert len(items) == 1 and items[0].get("identifier") and items[0].findtext(q("title"))
    resources = root.find(q("resources"))
    assert resources is not None
    by_id = {r.get("identifier"): r for r in resources.findall(q("resource"))}
    resource = by_id.get(items[0].get("identifierref"))
    assert resource is not None, "item@identifierref must name a resource"
    assert resource.get("type") == "webcontent"
    assert resource.get(f"{{{adlcp}}}{SCORM_TYPE[version]}") == "sco", f"adlcp:{SCORM_TYPE[version]}='sco' is required"
    href = resource.get("href")
    assert href in names, "the resource's href must be a file of the package"
    listed = [f.get("href") for f in resource.findall(q("file"))]
    assert len(listed) == len(set(listed)) and href in listed
    assert set(listed) == names - {"imsmanifest.xml"}, "every file of the package is listed, and only those"
    parameters = items[0].get("parameters") or ""
    assert parameters.startswith("?")
    query = parse_qs(parameters[1:])
    assert query.get("quiz") == ["1"] and query.get("lock") == ["1"], "launched with guess first and lock=1"
    return href + parameters, root, names
